// One Query or Scan request written as code: boto3, JavaScript SDK v3, AWS CLI, Go SDK v2,
// Java SDK v2, and as a PartiQL statement.
import type { AV } from './types';

export type Language = 'boto3' | 'js' | 'cli' | 'go' | 'java' | 'partiql';
export const LANGUAGES: { id: Language; label: string }[] = [
  { id: 'boto3', label: 'Python (boto3)' },
  { id: 'js', label: 'JavaScript SDK v3' },
  { id: 'cli', label: 'AWS CLI' },
  { id: 'go', label: 'Go SDK v2' },
  { id: 'java', label: 'Java SDK v2' },
  { id: 'partiql', label: 'PartiQL' },
];

export type Operation = 'Query' | 'Scan';
export type Request = Record<string, any>;

const snake = (op: Operation) => op.toLowerCase();

// Binary attribute values are base64 text in DynamoDB JSON; the SDKs take bytes (given text, boto3
// and the JavaScript SDK would encode it once more).
const isBinary = (k: string, v: unknown): boolean =>
  (k === 'B' && typeof v === 'string') || (k === 'BS' && Array.isArray(v) && v.every((s) => typeof s === 'string'));

function pyBytes(b64: string): string {
  let raw: string;
  try {
    raw = atob(b64);
  } catch {
    return JSON.stringify(b64);
  }
  const chars = [...raw].map((ch) => {
    const c = ch.charCodeAt(0);
    return c >= 0x20 && c < 0x7f && ch !== '"' && ch !== '\\' ? ch : `\\x${c.toString(16).padStart(2, '0')}`;
  });
  return `b"${chars.join('')}"`;
}

// Python literals from JSON values.
function py(v: unknown, indent: string): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  const inner = indent + '    ';
  if (Array.isArray(v)) return v.length ? `[\n${v.map((e) => inner + py(e, inner)).join(',\n')},\n${indent}]` : '[]';
  const entries = Object.entries(v as object);
  const value = (k: string, e: unknown) => (!isBinary(k, e) ? py(e, inner) : k === 'B' ? pyBytes(e as string) : `[${(e as string[]).map(pyBytes).join(', ')}]`);
  if (!entries.length) return '{}';
  if (entries.length === 1 && (typeof entries[0][1] !== 'object' || isBinary(...entries[0]))) return `{${JSON.stringify(entries[0][0])}: ${value(...entries[0])}}`;
  return `{\n${entries.map(([k, e]) => `${inner}${JSON.stringify(k)}: ${value(k, e)}`).join(',\n')},\n${indent}}`;
}

function boto3(op: Operation, r: Request, endpoint: string): string {
  const args = Object.entries(r).map(([k, v]) => `    ${k}=${py(v, '    ')},`).join('\n');
  return `import boto3\n\nclient = boto3.client("dynamodb", endpoint_url="${endpoint}")\nresponse = client.${snake(op)}(\n${args}\n)\nprint(response["Count"], response["ScannedCount"], response.get("ConsumedCapacity"))\nfor item in response["Items"]:\n    print(item)\n`;
}

function js(op: Operation, r: Request, endpoint: string): string {
  const mark = (b64: string) => `\u0000base64:${b64}`;
  const body = JSON.stringify(r, (k, v) => (!isBinary(k, v) ? v : k === 'B' ? mark(v) : v.map(mark)), 2)
    .replace(/"\\u0000base64:([^"]*)"/g, 'Buffer.from("$1", "base64")')
    .replace(/\n/g, '\n  ');
  return `import { DynamoDBClient, ${op}Command } from "@aws-sdk/client-dynamodb";\n\nconst client = new DynamoDBClient({ endpoint: "${endpoint}" });\nconst response = await client.send(\n  new ${op}Command(${body.replace(/\n/g, '\n  ')}),\n);\nconsole.log(response.Count, response.ScannedCount, response.ConsumedCapacity);\nconsole.log(response.Items);\n`;
}

const shellQuote = (s: string) => (/^[A-Za-z0-9_.:/@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

// The CLI pages by itself and hides Limit and ExclusiveStartKey (--page-size, --max-items and
// --starting-token replace them): one page of the request as the console sends it is
// --no-paginate with those two given through --cli-input-json.
function cli(op: Operation, r: Request, endpoint: string): string {
  const flag = (k: string) => '--' + k.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
  const lines = [`aws dynamodb ${snake(op)}`];
  const raw: Request = {};
  for (const [k, v] of Object.entries(r)) {
    if (k === 'Limit' || k === 'ExclusiveStartKey') raw[k] = v;
    else if (k === 'ScanIndexForward') lines.push(v ? '--scan-index-forward' : '--no-scan-index-forward');
    else if (k === 'ConsistentRead') lines.push(v ? '--consistent-read' : '--no-consistent-read');
    else if (typeof v === 'object') lines.push(`${flag(k)} ${shellQuote(JSON.stringify(v))}`);
    else lines.push(`${flag(k)} ${shellQuote(String(v))}`);
  }
  lines.push('--no-paginate');
  if (Object.keys(raw).length) lines.push(`--cli-input-json ${shellQuote(JSON.stringify(raw))}`);
  lines.push(`--endpoint-url ${endpoint}`);
  const binary = /"BS?":/.test(JSON.stringify(r)) ? '# binary values in base64, as AWS CLI v2 reads them (v1 would encode them again)\n' : '';
  return binary + lines.join(' \\\n    ') + '\n';
}

function goValue(v: AV, indent: string): string {
  const q = JSON.stringify;
  if ('S' in v) return `&types.AttributeValueMemberS{Value: ${q(v.S)}}`;
  if ('N' in v) return `&types.AttributeValueMemberN{Value: ${q(v.N)}}`;
  if ('B' in v) return `&types.AttributeValueMemberB{Value: mustBase64(${q(v.B)})}`;
  if ('BOOL' in v) return `&types.AttributeValueMemberBOOL{Value: ${v.BOOL}}`;
  if ('NULL' in v) return `&types.AttributeValueMemberNULL{Value: true}`;
  if ('SS' in v) return `&types.AttributeValueMemberSS{Value: []string{${v.SS.map((s) => q(s)).join(', ')}}}`;
  if ('NS' in v) return `&types.AttributeValueMemberNS{Value: []string{${v.NS.map((s) => q(s)).join(', ')}}}`;
  if ('BS' in v) return `&types.AttributeValueMemberBS{Value: [][]byte{${v.BS.map((s) => `mustBase64(${q(s)})`).join(', ')}}}`;
  const inner = indent + '\t';
  if ('L' in v) return `&types.AttributeValueMemberL{Value: []types.AttributeValue{\n${v.L.map((e) => inner + goValue(e, inner) + ',').join('\n')}\n${indent}}}`;
  return `&types.AttributeValueMemberM{Value: ${goMap(v.M, indent)}}`;
}

function goMap(m: Record<string, AV>, indent: string): string {
  const inner = indent + '\t';
  return `map[string]types.AttributeValue{\n${Object.entries(m).map(([k, e]) => `${inner}${JSON.stringify(k)}: ${goValue(e, inner)},`).join('\n')}\n${indent}}`;
}

function go(op: Operation, r: Request, endpoint: string): string {
  const lines: string[] = [];
  const t = '\t\t';
  for (const [k, v] of Object.entries(r)) {
    if (k === 'ExpressionAttributeValues' || k === 'ExclusiveStartKey') lines.push(`${t}${k}: ${goMap(v, t)},`);
    else if (k === 'ExpressionAttributeNames')
      lines.push(`${t}${k}: map[string]string{\n${Object.entries(v).map(([a, b]) => `${t}\t${JSON.stringify(a)}: ${JSON.stringify(b)},`).join('\n')}\n${t}},`);
    else if (k === 'Limit') lines.push(`${t}Limit: aws.Int32(${v}),`);
    else if (k === 'Segment' || k === 'TotalSegments') lines.push(`${t}${k}: aws.Int32(${v}),`);
    else if (typeof v === 'boolean') lines.push(`${t}${k}: aws.Bool(${v}),`);
    else if (k === 'ReturnConsumedCapacity') lines.push(`${t}${k}: types.ReturnConsumedCapacity${v[0]}${v.slice(1).toLowerCase()},`);
    else if (k === 'Select') lines.push(`${t}${k}: types.Select${String(v).toLowerCase().replace(/(^|_)([a-z])/g, (_m: string, _u: string, c: string) => c.toUpperCase())},`);
    else lines.push(`${t}${k}: aws.String(${JSON.stringify(v)}),`);
  }
  const usesBinary = /"BS?":/.test(JSON.stringify(r));
  return `package main

import (
\t"context"
${usesBinary ? '\t"encoding/base64"\n' : ''}\t"fmt"
\t"log"

\t"github.com/aws/aws-sdk-go-v2/aws"
\t"github.com/aws/aws-sdk-go-v2/config"
\t"github.com/aws/aws-sdk-go-v2/service/dynamodb"
\t"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)
${usesBinary ? '\nfunc mustBase64(s string) []byte {\n\tb, err := base64.StdEncoding.DecodeString(s)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\treturn b\n}\n' : ''}
func main() {
\tctx := context.Background()
\tcfg, err := config.LoadDefaultConfig(ctx)
\tif err != nil {
\t\tlog.Fatal(err)
\t}
\tclient := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
\t\to.BaseEndpoint = aws.String("${endpoint}")
\t})
\tout, err := client.${op}(ctx, &dynamodb.${op}Input{
${lines.join('\n')}
\t})
\tif err != nil {
\t\tlog.Fatal(err)
\t}
\tfmt.Println(out.Count, out.ScannedCount, out.Items)
}
`;
}

function javaValue(v: AV, indent: string): string {
  const q = JSON.stringify;
  if ('S' in v) return `AttributeValue.fromS(${q(v.S)})`;
  if ('N' in v) return `AttributeValue.fromN(${q(v.N)})`;
  if ('B' in v) return `AttributeValue.fromB(SdkBytes.fromByteArray(Base64.getDecoder().decode(${q(v.B)})))`;
  if ('BOOL' in v) return `AttributeValue.fromBool(${v.BOOL})`;
  if ('NULL' in v) return `AttributeValue.fromNul(true)`;
  if ('SS' in v) return `AttributeValue.fromSs(List.of(${v.SS.map((s) => q(s)).join(', ')}))`;
  if ('NS' in v) return `AttributeValue.fromNs(List.of(${v.NS.map((s) => q(s)).join(', ')}))`;
  if ('BS' in v) return `AttributeValue.fromBs(List.of(${v.BS.map((s) => `SdkBytes.fromByteArray(Base64.getDecoder().decode(${q(s)}))`).join(', ')}))`;
  const inner = indent + '    ';
  if ('L' in v) return `AttributeValue.fromL(List.of(\n${v.L.map((e) => inner + javaValue(e, inner)).join(',\n')}))`;
  return `AttributeValue.fromM(${javaMap(v.M, indent)})`;
}

function javaMap(m: Record<string, AV>, indent: string): string {
  const inner = indent + '    ';
  return `Map.ofEntries(\n${Object.entries(m).map(([k, e]) => `${inner}Map.entry(${JSON.stringify(k)}, ${javaValue(e, inner)})`).join(',\n')})`;
}

function java(op: Operation, r: Request): string {
  const lower = (k: string) => k[0].toLowerCase() + k.slice(1);
  const calls: string[] = [];
  const i = '        ';
  for (const [k, v] of Object.entries(r)) {
    if (k === 'ExpressionAttributeValues' || k === 'ExclusiveStartKey') calls.push(`${i}.${lower(k)}(${javaMap(v, i)})`);
    else if (k === 'ExpressionAttributeNames')
      calls.push(`${i}.${lower(k)}(Map.ofEntries(\n${Object.entries(v).map(([a, b]) => `${i}    Map.entry(${JSON.stringify(a)}, ${JSON.stringify(b)})`).join(',\n')}))`);
    else if (k === 'ReturnConsumedCapacity') calls.push(`${i}.returnConsumedCapacity(ReturnConsumedCapacity.${v})`);
    else if (k === 'Select') calls.push(`${i}.select(Select.${v})`);
    else if (typeof v === 'number' || typeof v === 'boolean') calls.push(`${i}.${lower(k)}(${v})`);
    else calls.push(`${i}.${lower(k)}(${JSON.stringify(v)})`);
  }
  const usesBinary = /"BS?":/.test(JSON.stringify(r));
  return `import java.net.URI;
${usesBinary ? 'import java.util.Base64;\n' : ''}import java.util.List;
import java.util.Map;
${usesBinary ? 'import software.amazon.awssdk.core.SdkBytes;\n' : ''}import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.*;

DynamoDbClient client = DynamoDbClient.builder()
    .endpointOverride(URI.create(ENDPOINT))
    .build();
${op}Request request = ${op}Request.builder()
${calls.join('\n')}
        .build();
${op}Response response = client.${lower(op)}(request);
System.out.println(response.count() + " " + response.scannedCount() + " " + response.consumedCapacity());
response.items().forEach(System.out::println);
`;
}

export function generate(lang: Language, op: Operation, r: Request, endpoint: string, partiql: string): string {
  switch (lang) {
    case 'boto3':
      return boto3(op, r, endpoint);
    case 'js':
      return js(op, r, endpoint);
    case 'cli':
      return cli(op, r, endpoint);
    case 'go':
      return go(op, r, endpoint);
    case 'java':
      return java(op, r).replace('ENDPOINT', JSON.stringify(endpoint));
    case 'partiql':
      return partiql;
  }
}

// PartiQL literals.
export function partiqlValue(v: AV): string {
  const str = (s: string) => `'${s.replace(/'/g, "''")}'`;
  if ('S' in v) return str(v.S);
  if ('N' in v) return v.N;
  if ('BOOL' in v) return String(v.BOOL);
  if ('NULL' in v) return 'NULL';
  if ('B' in v) return str(v.B);
  if ('SS' in v) return `<<${v.SS.map(str).join(', ')}>>`;
  if ('NS' in v) return `<<${v.NS.join(', ')}>>`;
  if ('BS' in v) return `<<${v.BS.map(str).join(', ')}>>`;
  if ('L' in v) return `[${v.L.map(partiqlValue).join(', ')}]`;
  return `{${Object.entries(v.M).map(([k, e]) => `${str(k)}: ${partiqlValue(e)}`).join(', ')}}`;
}

export const partiqlName = (n: string): string => `"${n.replace(/"/g, '""')}"`;

export function partiqlPath(p: (string | number)[]): string {
  return p.map((s, i) => (typeof s === 'number' ? `[${s}]` : (i ? '.' : '') + partiqlName(s))).join('');
}
