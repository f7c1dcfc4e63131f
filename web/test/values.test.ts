import { describe, expect, it } from 'vitest';
import { compareKeys, keyText, marshallItem, unmarshallItem, validateItem } from '../src/values';

describe('key order', () => {
  it('orders strings by UTF-8 bytes, numbers numerically', () => {
    const s = (x: string) => ({ S: x });
    expect(['b', 'a', 'B', 'é', 'z'].map(s).sort(compareKeys).map((v) => v.S)).toEqual(['B', 'a', 'b', 'z', 'é']);
    // As strings "10" sorts before "9"; as numbers after (the zero-padding pitfall).
    expect(compareKeys(s('10'), s('9'))).toBeLessThan(0);
    expect(compareKeys({ N: '10' }, { N: '9' })).toBeGreaterThan(0);
    expect(compareKeys({ N: '-1' }, { N: '0.5' })).toBeLessThan(0);
    expect(compareKeys({ B: 'AQ==' }, { B: 'Ag==' })).toBeLessThan(0);
  });
});

describe('plain JSON', () => {
  it('turns plain JSON into DynamoDB JSON and back', () => {
    const plain = { a: 'x', n: 1.5, ok: false, none: null, l: [1, 'two'], m: { k: { deep: true } } };
    const item = marshallItem(plain);
    expect(item).toEqual({
      a: { S: 'x' }, n: { N: '1.5' }, ok: { BOOL: false }, none: { NULL: true },
      l: { L: [{ N: '1' }, { S: 'two' }] }, m: { M: { k: { M: { deep: { BOOL: true } } } } },
    });
    const lossy = { value: false };
    expect(unmarshallItem(item, lossy)).toEqual(plain);
    expect(lossy.value).toBe(false);
  });
  it('flags what plain JSON cannot hold: sets, binary, numbers beyond a double', () => {
    for (const item of [{ s: { SS: ['a'] } }, { b: { B: 'AA==' } }, { n: { N: '12345678901234567890123' } }]) {
      const lossy = { value: false };
      unmarshallItem(item as any, lossy);
      expect(lossy.value).toBe(true);
    }
  });
  it('checks DynamoDB JSON', () => {
    expect(() => validateItem({ a: { S: 1 } })).toThrow(/a: S takes a string/);
    expect(() => validateItem({ a: { L: [{ X: 1 }] } })).toThrow(/a\[0\]/);
    expect(() => validateItem({ a: { S: 'x', N: '1' } })).toThrow();
    expect(() => validateItem({ a: { NS: ['1'] }, m: { M: { b: { NULL: true } } } })).not.toThrow();
  });
  it('writes key values back as typed', () => {
    expect([keyText({ S: 'USER#1' }), keyText({ N: '42' }), keyText({ B: 'AQ==' })]).toEqual(['USER#1', '42', 'AQ==']);
  });
});
