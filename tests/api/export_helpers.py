"""Reading a full export the way AWS documents its layout, from wherever its objects are."""
import base64
import gzip
import hashlib
import json


def read_documented_export(read_object, manifest_key):
    """Only AWS's documented layout: manifest-summary.json names manifest-files.json, whose lines name
    gzipped data files of {"Item": {...}} lines, each file with its item count and MD5.
    `read_object(key)` gives an object's bytes. Returns the summary and the items."""
    summary = json.loads(read_object(manifest_key))
    items = []
    for line in read_object(summary["manifestFilesS3Key"]).decode().splitlines():
        entry = json.loads(line)
        raw = read_object(entry["dataFileS3Key"])
        assert base64.b64encode(hashlib.md5(raw).digest()).decode() == entry["md5Checksum"]
        assert hashlib.md5(raw).hexdigest() == entry["etag"]
        lines = gzip.decompress(raw).decode().splitlines()
        assert len(lines) == entry["itemCount"]
        items += [json.loads(l)["Item"] for l in lines]
    assert summary["itemCount"] == len(items)
    return summary, items
