import { describe, expect, it } from 'vitest';
import { generate } from '../src/codegen';
import { newCondition, newGroup } from '../src/condition';
import type { OperandKind } from '../src/condition';
import { buildRequest } from '../src/query-build';
import type { TableDescription } from '../src/types';
import { viewsOf } from '../src/values';

const table: TableDescription = {
  TableName: 'shop',
  TableStatus: 'ACTIVE',
  KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }],
  AttributeDefinitions: [{ AttributeName: 'PK', AttributeType: 'S' }],
};
const eq = (path: string, kind: OperandKind, text: string) => newCondition({ path, op: '=', operands: [{ kind, text }] });

// A Scan whose filter holds every kind of value, and one without binary.
function scan(withBinary: boolean) {
  const children = [
    eq('l', 'L', '[1, "a"]'), eq('m', 'M', '{"k": true}'), eq('ss', 'SS', '["x"]'), eq('ns', 'NS', '[2]'), eq('n', 'NULL', ''), eq('f', 'BOOL', 'false'),
    eq('other', 'path', 'l[0]'),
  ];
  if (withBinary) children.push(eq('b', 'B', 'AQID'), eq('bs', 'BS', '["AQI="]'));
  const [base] = viewsOf(table);
  const spec = { mode: 'Scan' as const, view: base, pk: '', skOp: '' as const, sk1: '', sk2: '', projection: '', count: false, forward: true, limit: '', consistent: false };
  return buildRequest(table, { ...spec, filter: newGroup('OR', [newGroup('AND', children.slice(0, 3)), ...children.slice(3)]) });
}

describe('generated code for a filter with every kind of value', () => {
  const { request, partiql } = scan(true);
  const code = (lang: Parameters<typeof generate>[0]) => generate(lang, 'Scan', request, 'http://localhost:8000', partiql);
  it('keeps the nested expression in every SDK', () => {
    const expression = '(l = :l AND m = :m AND ss = :ss) OR ns = :ns OR n = :n OR f = :f OR #other = l[0] OR b = :b OR bs = :bs';
    expect(request.FilterExpression).toBe(expression);
    expect(code('boto3')).toContain(`FilterExpression="${expression}"`);
    expect(code('js')).toContain(`"FilterExpression": "${expression}"`);
    expect(code('cli')).toContain(`--filter-expression '${expression}'`);
    expect(code('go')).toContain(`FilterExpression: aws.String("${expression}")`);
    expect(code('java')).toContain(`.filterExpression("${expression}")`);
  });
  it('writes lists, maps, sets, null, booleans and binary in each language', () => {
    const go = code('go');
    for (const s of [
      '":l": &types.AttributeValueMemberL{Value: []types.AttributeValue{',
      '&types.AttributeValueMemberS{Value: "a"}',
      '":m": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{',
      '"k": &types.AttributeValueMemberBOOL{Value: true}',
      '&types.AttributeValueMemberSS{Value: []string{"x"}}',
      '&types.AttributeValueMemberNS{Value: []string{"2"}}',
      '&types.AttributeValueMemberNULL{Value: true}',
      '&types.AttributeValueMemberB{Value: mustBase64("AQID")}',
      '&types.AttributeValueMemberBS{Value: [][]byte{mustBase64("AQI=")}}',
      '"encoding/base64"',
    ])
      expect(go).toContain(s);
    const java = code('java');
    for (const s of [
      'AttributeValue.fromL(List.of(',
      'AttributeValue.fromM(Map.ofEntries(',
      'AttributeValue.fromSs(List.of("x"))',
      'AttributeValue.fromNs(List.of("2"))',
      'AttributeValue.fromNul(true)',
      'AttributeValue.fromBool(false)',
      'AttributeValue.fromB(SdkBytes.fromByteArray(Base64.getDecoder().decode("AQID")))',
      'import java.util.Base64;',
    ])
      expect(java).toContain(s);
    expect(code('boto3')).toContain('"NULL": True');
    // Binary: bytes for the SDKs (base64 text would be encoded again), base64 for the CLI (v2) and Go and Java decode it.
    expect(code('boto3')).toContain('":b": {"B": b"\\x01\\x02\\x03"}');
    expect(code('boto3')).toContain('":bs": {"BS": [b"\\x01\\x02"]}');
    expect(code('js')).toContain('"B": Buffer.from("AQID", "base64")');
    expect(code('js')).toMatch(/"BS": \[\s*Buffer\.from\("AQI=", "base64"\)\s*\]/);
    expect(code('cli')).toMatch(/^# binary values in base64, as AWS CLI v2 reads them/);
    expect(code('cli')).toContain('":bs":{"BS":["AQI="]}');
    expect(partiql).toMatch(/^-- the filter is not expressible in PartiQL \(it has no literal for binary values, B and BS\): this statement leaves it out\n/);
  });
  it('imports base64 only for binary values (BOOL is not binary)', () => {
    const plain = scan(false);
    const go = generate('go', 'Scan', plain.request, 'http://localhost:8000', plain.partiql);
    const java = generate('java', 'Scan', plain.request, 'http://localhost:8000', plain.partiql);
    expect(go).not.toContain('base64');
    expect(java).not.toContain('Base64');
    expect(generate('boto3', 'Scan', plain.request, '', '')).not.toMatch(/: \[?b"/);
    expect(generate('js', 'Scan', plain.request, '', '')).not.toContain('Buffer');
    expect(generate('cli', 'Scan', plain.request, '', '')).toMatch(/^aws dynamodb scan/);
    expect(plain.partiql).toContain(`"ns" = <<2>> OR "n" = NULL OR "f" = false OR "other" = "l"[0]`);
  });
});
