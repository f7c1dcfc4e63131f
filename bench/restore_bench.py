#!/usr/bin/env python3
"""Restore benchmark: how fast RestoreTableFromBackup and RestoreTableToPointInTime load a large table
(items per second), on monotable's RocksDB engine (default) or in memory.

    /usr/bin/python3 bench/restore_bench.py                       # 200k items of ~200 bytes, RocksDB
    /usr/bin/python3 bench/restore_bench.py --items 1000000 --in-memory --binary build/monotable

The table gets a GSI, so a restore also rebuilds index entries. The load goes through BatchWriteItem
on 8 threads; the timed part is from the restore request until DescribeTable says ACTIVE (polled
every 20 ms), and the backup's creation (CREATING -> AVAILABLE) is timed the same way.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile
import time

import boto3
import botocore.config

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def start(binary, in_memory, data_dir):
    args = [binary, "serve", "--host", "127.0.0.1", "--port", "0"]
    args += ["--in-memory"] if in_memory else ["--data", data_dir]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    port = int(line.split()[3].split(":")[1])
    return proc, f"http://127.0.0.1:{port}"


def client(endpoint):
    return boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="x",
                        aws_secret_access_key="x",
                        config=botocore.config.Config(retries={"max_attempts": 10}, max_pool_connections=16))


def load(ddb, table, items, threads=8):
    payload = "x" * 150

    def write(start):
        requests = [{"PutRequest": {"Item": {"pk": {"S": f"user#{i:09d}"}, "g": {"S": f"g{i % 1000}"},
                                             "n": {"N": str(i)}, "p": {"S": payload}}}}
                    for i in range(start, min(start + 25, items))]
        while requests:
            out = ddb.batch_write_item(RequestItems={table: requests})
            requests = out.get("UnprocessedItems", {}).get(table, [])

    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        list(pool.map(write, range(0, items, 25)))


def wait(predicate):
    t0 = time.time()
    while not predicate():
        time.sleep(0.02)
    return time.time() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "monotable"))
    ap.add_argument("--items", type=int, default=200000)
    ap.add_argument("--in-memory", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as data:
        proc, endpoint = start(args.binary, args.in_memory, data)
        try:
            ddb = client(endpoint)
            ddb.create_table(TableName="src", BillingMode="PAY_PER_REQUEST",
                             KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                             AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                                   {"AttributeName": "g", "AttributeType": "S"}],
                             GlobalSecondaryIndexes=[{"IndexName": "byG", "Projection": {"ProjectionType": "ALL"},
                                                      "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}]}])
            ddb.update_continuous_backups(TableName="src",
                                          PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
            t0 = time.time()
            load(ddb, "src", args.items)
            load_s = time.time() - t0
            arn = ddb.create_backup(TableName="src", BackupName="bench")["BackupDetails"]["BackupArn"]
            backup_s = wait(lambda: ddb.describe_backup(BackupArn=arn)["BackupDescription"]["BackupDetails"][
                "BackupStatus"] == "AVAILABLE")
            ddb.restore_table_from_backup(TargetTableName="from-backup", BackupArn=arn)
            restore_s = wait(lambda: ddb.describe_table(TableName="from-backup")["Table"]["TableStatus"] == "ACTIVE")
            ddb.restore_table_to_point_in_time(SourceTableName="src", TargetTableName="from-pitr",
                                               UseLatestRestorableTime=True)
            pitr_s = wait(lambda: ddb.describe_table(TableName="from-pitr")["Table"]["TableStatus"] == "ACTIVE")
            count = ddb.describe_table(TableName="from-backup")["Table"]["ItemCount"]
            assert count == args.items, count
            engine = "memory" if args.in_memory else "rocksdb"
            print(f"engine {engine}, {args.items} items (~200 B, one GSI)")
            print(f"  load (BatchWriteItem, 8 threads) {load_s:7.2f} s  {args.items / load_s:10.0f} items/s")
            print(f"  CreateBackup until AVAILABLE     {backup_s:7.2f} s  {args.items / backup_s:10.0f} items/s")
            print(f"  RestoreTableFromBackup           {restore_s:7.2f} s  {args.items / restore_s:10.0f} items/s")
            print(f"  RestoreTableToPointInTime        {pitr_s:7.2f} s  {args.items / pitr_s:10.0f} items/s")
        finally:
            proc.terminate()
            proc.wait(timeout=60)
    return 0


if __name__ == "__main__":
    sys.exit(main())
