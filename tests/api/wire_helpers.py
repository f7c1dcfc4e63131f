"""Shared by the API tests: the (code, message) of a botocore ClientError caught by pytest.raises,
the ValidationException check, and low-level AttributeValue builders for the client API."""


def err(e):
    return e.value.response["Error"]["Code"], e.value.response["Error"]["Message"]


def validation(e, message):
    assert err(e) == ("ValidationException", message)


def S(v):
    return {"S": v}


def N(v):
    return {"N": str(v)}


def B(v):
    return {"B": v}
