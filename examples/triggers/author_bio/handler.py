"""Denormalised author bio: when an author's item changes, copy the new bio onto every book.

Single-table design (table "Library"):
  author  pk = "AUTHOR#<id>"  sk = "AUTHOR"   name, bio
  book    pk = "BOOK#<isbn>"  sk = "BOOK"     title, author_id, author_bio (a copy of the author's bio)
  GSI "by_author": author_id (HASH), pk (RANGE) finds an author's books.

The trigger's filter only passes MODIFY records of AUTHOR# items, so the book updates this
handler makes never come back to it. It is an ordinary Lambda handler: it runs unchanged on AWS
(with the table name in the TABLE_NAME environment variable, default "Library") and locally under
`monotable serve --triggers triggers.json` through the one-line shim in triggers.json.

Records it could not process are reported in batchItemFailures (the trigger sets
FunctionResponseTypes: ReportBatchItemFailures), so only they are retried.
"""
import os

import boto3

TABLE_NAME = os.environ.get("TABLE_NAME", "Library")
_table = None


def table():
    global _table
    if _table is None:
        # boto3 >= 1.28 reads AWS_ENDPOINT_URL_DYNAMODB itself (monotable sets it for its handlers);
        # passing it on keeps older boto3 working too. On AWS it is unset: the default endpoint.
        _table = boto3.resource("dynamodb", endpoint_url=os.environ.get("AWS_ENDPOINT_URL_DYNAMODB")).Table(TABLE_NAME)
    return _table


def books_of(author_id):
    kwargs = {"IndexName": "by_author", "KeyConditionExpression": "author_id = :a",
              "ExpressionAttributeValues": {":a": author_id}}
    while True:
        page = table().query(**kwargs)
        yield from page["Items"]
        if "LastEvaluatedKey" not in page:
            return
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def copy_bio(record):
    new = record["dynamodb"]["NewImage"]
    old = record["dynamodb"].get("OldImage", {})
    if new.get("bio") == old.get("bio"):
        return 0
    author_id = new["pk"]["S"][len("AUTHOR#"):]
    bio = new.get("bio", {}).get("S", "")
    updated = 0
    for book in books_of(author_id):
        table().update_item(Key={"pk": book["pk"], "sk": book["sk"]},
                            UpdateExpression="SET author_bio = :bio",
                            ExpressionAttributeValues={":bio": bio})
        updated += 1
    return updated


def handler(event, context):
    failures = []
    for record in event["Records"]:
        try:
            n = copy_bio(record)
            print(f"author {record['dynamodb']['Keys']['pk']['S']}: bio copied to {n} book(s)")
        except Exception as e:  # report it; the records before it are done
            print(f"failed on {record['dynamodb']['SequenceNumber']}: {e!r}")
            failures.append({"itemIdentifier": record["dynamodb"]["SequenceNumber"]})
            break  # stream order: later records wait for this one
    return {"batchItemFailures": failures}
