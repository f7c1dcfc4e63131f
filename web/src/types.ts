// DynamoDB wire shapes the console reads and writes (a subset of the API reference's).

export type AV =
  | { S: string }
  | { N: string }
  | { B: string }
  | { BOOL: boolean }
  | { NULL: true }
  | { SS: string[] }
  | { NS: string[] }
  | { BS: string[] }
  | { L: AV[] }
  | { M: Item };

export type Item = Record<string, AV>;
export type ScalarType = 'S' | 'N' | 'B';

export interface KeySchemaElement {
  AttributeName: string;
  KeyType: 'HASH' | 'RANGE';
}

export interface Projection {
  ProjectionType?: 'ALL' | 'KEYS_ONLY' | 'INCLUDE';
  NonKeyAttributes?: string[];
}

export interface IndexDescription {
  IndexName: string;
  KeySchema: KeySchemaElement[];
  Projection: Projection;
  IndexStatus?: string;
  ItemCount?: number;
  IndexSizeBytes?: number;
}

export interface TableDescription {
  TableName: string;
  TableStatus: string;
  KeySchema: KeySchemaElement[];
  AttributeDefinitions: { AttributeName: string; AttributeType: ScalarType }[];
  GlobalSecondaryIndexes?: IndexDescription[];
  LocalSecondaryIndexes?: IndexDescription[];
  ItemCount?: number;
  TableSizeBytes?: number;
  BillingModeSummary?: { BillingMode: string };
  ProvisionedThroughput?: { ReadCapacityUnits: number; WriteCapacityUnits: number };
  StreamSpecification?: { StreamEnabled: boolean; StreamViewType?: string };
  LatestStreamArn?: string;
  TableArn?: string;
  CreationDateTime?: number;
  ttl?: string; // the console's: the TTL attribute when TTL is enabled (DescribeTimeToLive)
}

export interface ConsumedCapacity {
  TableName?: string;
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
  LocalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

// One view of a table's items: the base table or one of its indexes, with its key attributes.
export interface KeyView {
  name: string; // "" for the base table
  kind: 'table' | 'GSI' | 'LSI';
  hash: string;
  range?: string;
  projection: Projection;
}
