"""A ClientRequestToken outlives the process: a TransactWriteItems (or ExecuteTransaction) retried
with the same token after a kill -9 and a restart, within the 10-minute window, is answered as a
replay and does not run again; with other parameters it is refused."""
import signal

import pytest
from botocore.exceptions import ClientError

from conftest import unique_name


def counter_table(c):
    name = unique_name()
    c.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                   AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                   BillingMode="PAY_PER_REQUEST")
    return name


def increment(name, by=1):
    return [{"Update": {"TableName": name, "Key": {"pk": {"S": "counter"}},
                        "UpdateExpression": "ADD n :one", "ExpressionAttributeValues": {":one": {"N": str(by)}}}}]


def count(c, name):
    return int(c.get_item(TableName=name, Key={"pk": {"S": "counter"}}, ConsistentRead=True)["Item"]["n"]["N"])


@pytest.mark.parametrize("flags", [["--sync"], []], ids=["sync", "nosync"])
def test_token_retried_after_kill_9_does_not_run_twice(start_server, tmp_path, flags):
    data = str(tmp_path / "db")
    s = start_server("--data", data, *flags)
    c = s.client()
    name = counter_table(c)
    c.transact_write_items(TransactItems=increment(name), ClientRequestToken="tok-before-crash")
    c.transact_write_items(TransactItems=increment(name), ClientRequestToken="tok-before-crash")  # replay
    assert count(c, name) == 1
    s.kill(signal.SIGKILL)

    s2 = start_server("--data", data, *flags)
    c2 = s2.client()
    c2.transact_write_items(TransactItems=increment(name), ClientRequestToken="tok-before-crash")
    assert count(c2, name) == 1
    with pytest.raises(ClientError) as e:
        c2.transact_write_items(TransactItems=increment(name, 2), ClientRequestToken="tok-before-crash")
    assert e.value.response["Error"]["Code"] == "IdempotentParameterMismatchException"
    c2.transact_write_items(TransactItems=increment(name), ClientRequestToken="another-token")
    assert count(c2, name) == 2
    s2.stop()

    # A clean restart too, and PartiQL's ExecuteTransaction.
    s3 = start_server("--data", data, *flags)
    c3 = s3.client()
    c3.transact_write_items(TransactItems=increment(name), ClientRequestToken="another-token")
    statement = [{"Statement": f'UPDATE "{name}" SET n = n + 10 WHERE pk = \'counter\''}]
    c3.execute_transaction(TransactStatements=statement, ClientRequestToken="partiql-token")
    assert count(c3, name) == 12
    s3.kill(signal.SIGKILL)
    c4 = start_server("--data", data, *flags).client()
    c4.execute_transaction(TransactStatements=statement, ClientRequestToken="partiql-token")
    assert count(c4, name) == 12
