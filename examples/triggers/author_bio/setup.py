"""Creates the example's "Library" table (stream NEW_AND_OLD_IMAGES, GSI by_author) and a few items.

    monotable serve --in-memory --triggers examples/triggers/author_bio/triggers.json &
    python3 examples/triggers/author_bio/setup.py http://127.0.0.1:8000
    aws dynamodb update-item --endpoint-url http://127.0.0.1:8000 --table-name Library \
        --key '{"pk":{"S":"AUTHOR#ann"},"sk":{"S":"AUTHOR"}}' \
        --update-expression 'SET bio = :b' --expression-attribute-values '{":b":{"S":"New bio"}}'
    # every book of ann now has author_bio = "New bio"
"""
import sys

import boto3


def create_library(endpoint, name="Library", books_per_author=3):
    ddb = boto3.resource("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                         aws_access_key_id="local", aws_secret_access_key="local")
    table = ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "S"},
                              {"AttributeName": "author_id", "AttributeType": "S"}],
        GlobalSecondaryIndexes=[{"IndexName": "by_author",
                                 "KeySchema": [{"AttributeName": "author_id", "KeyType": "HASH"},
                                               {"AttributeName": "pk", "KeyType": "RANGE"}],
                                 "Projection": {"ProjectionType": "KEYS_ONLY"}}],
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
    table.wait_until_exists()
    for author in ("ann", "bob"):
        bio = f"{author} writes books."
        table.put_item(Item={"pk": f"AUTHOR#{author}", "sk": "AUTHOR", "name": author, "bio": bio})
        for i in range(books_per_author):
            table.put_item(Item={"pk": f"BOOK#{author}-{i}", "sk": "BOOK", "title": f"{author} volume {i}",
                                 "author_id": author, "author_bio": bio})
    return table


if __name__ == "__main__":
    create_library(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")
