import { describe, expect, it } from 'vitest';
import { JsonBytesWriter } from './json-bytes-writer';
import { quote } from './kubectl-json';

const text = (w: JsonBytesWriter) => new TextDecoder().decode(w.view());

describe('JsonBytesWriter', () => {
  const samples = [
    '',
    'plain-ascii/with:punctuation',
    'a "quoted" \\ back\\slash',
    '<script>&</script>',
    'line\nbreak\ttab\r\b\f\u0001\u001f\u007f',
    'snowman ☃, emoji 😀, accents éà',
    'separators \u2028 and \u2029',
    'x'.repeat(100) + '<' + 'y'.repeat(40),
  ];

  it('escapes strings from UTF-8 bytes exactly as Go (and the tree printer) do', () => {
    for (const s of samples) {
      const w = new JsonBytesWriter(true);
      const bytes = new TextEncoder().encode(s);
      w.str(bytes, 0, bytes.length);
      expect(text(w)).toBe(quote(s));
      const w2 = new JsonBytesWriter(true);
      w2.jsStr(s);
      expect(text(w2)).toBe(quote(s));
    }
  });

  it('turns each invalid UTF-8 byte into U+FFFD, as kubectl ends up printing it', () => {
    const w = new JsonBytesWriter(true);
    const bytes = new Uint8Array([0x61, 0xff, 0xe2, 0x80, 0x62, 0xed, 0xa0, 0x80]);
    w.str(bytes, 0, bytes.length);
    expect(text(w)).toBe('"a\ufffd\ufffd\ufffdb\ufffd\ufffd\ufffd"');
  });

  it('grows its buffer without losing what it wrote', () => {
    const w = new JsonBytesWriter(false);
    const big = new TextEncoder().encode('z'.repeat(200_000));
    w.str(big, 0, big.length);
    w.num(1234567);
    w.num(-5);
    w.num(2n ** 63n - 1n);
    expect(text(w)).toBe(`"${'z'.repeat(200_000)}"1234567-59223372036854775807`);
  });
});
