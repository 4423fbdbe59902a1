/**
 * What a simulated container prints, as containerd writes it into its CRI log file: RFC3339Nano times (trailing
 * zeros trimmed, as Go prints them), stdout and stderr, ANSI colour, structured JSON, lines over containerd's
 * 16 KiB cut written as `P` chunks, and a crash on stderr before each restart.
 */
import type { Prng } from './prng';

/** containerd's default max_container_log_line_size. */
export const MAX_LINE = 16 * 1024;

/** Go's time.RFC3339Nano in UTC: the fraction without trailing zeros (none at all when whole). */
export function rfc3339Nano(ms: number, subMsNanos: number): string {
  const iso = new Date(ms).toISOString(); // 2026-01-01T10:00:00.123Z
  const fraction = `${iso.slice(20, 23)}${String(subMsNanos).padStart(6, '0')}`.replace(/0+$/, '');
  return `${iso.slice(0, 19)}${fraction ? `.${fraction}` : ''}Z`;
}

/** One line of output as the runtime writes it, cut into `P` chunks when longer than MAX_LINE. */
export function criRecords(time: string, stream: 'stdout' | 'stderr', text: string, maxLine = MAX_LINE): string {
  const bytes = Buffer.from(text);
  const out: string[] = [];
  for (let at = 0; at < bytes.length || out.length === 0; at += maxLine) {
    const chunk = bytes.subarray(at, at + maxLine);
    const last = at + maxLine >= bytes.length;
    out.push(`${time} ${stream} ${last ? 'F' : 'P'} ${chunk.toString('latin1')}\n`);
  }
  // latin1 round-trips the bytes, so a chunk cut inside a UTF-8 character is written as the runtime writes it.
  return out.join('');
}

const PATHS = ['/healthz', '/api/v1/orders', '/api/v1/users/42', '/metrics', '/static/app.js'];
const COLOURS = { INFO: '\x1b[32m', WARN: '\x1b[33m', ERROR: '\x1b[31m' } as const;

/** The next line a running container prints: its stream and text (without the newline). */
export function nextLine(prng: Prng, container: string): { stream: 'stdout' | 'stderr'; text: string } {
  const kind = prng.weighted({ access: 6, coloured: 3, json: 2, warn: 1, long: 0.05, empty: 0.3 });
  switch (kind) {
    case 'access':
      return { stream: 'stdout', text: `10.244.${prng.int(0, 9)}.${prng.int(2, 250)} - - "GET ${prng.pick(PATHS)} HTTP/1.1" ${prng.pick([200, 200, 200, 304, 404, 500])} ${prng.int(0, 9000)}` };
    case 'coloured': {
      const level = prng.pick(['INFO', 'INFO', 'WARN'] as const);
      return { stream: 'stdout', text: `${COLOURS[level]}${level}\x1b[0m [${container}] worker ${prng.int(1, 8)} processed batch ${prng.hex(6)} in ${prng.int(1, 900)}ms` };
    }
    case 'json':
      return { stream: 'stdout', text: JSON.stringify({ level: 'info', msg: 'request done', latency_ms: prng.int(1, 300), trace: prng.hex(16) }) };
    case 'warn':
      return { stream: 'stderr', text: `W${prng.int(1000, 1231)} ${String(prng.int(0, 23)).padStart(2, '0')}:00:00.000000 1 reflector.go:${prng.int(100, 600)}] watch of *v1.ConfigMap ended with: too old resource version` };
    case 'long':
      return { stream: 'stdout', text: `dump: ${'x'.repeat(prng.int(MAX_LINE, 3 * MAX_LINE))}` };
    case 'empty':
      return { stream: 'stdout', text: '' };
  }
}

/** What the container says on stderr as it dies, before the kubelet restarts it. */
export function crashLines(prng: Prng): string[] {
  return [
    `panic: runtime error: invalid memory address or nil pointer dereference`,
    `[signal SIGSEGV: segmentation violation code=0x1 addr=0x${prng.hex(2)} pc=0x${prng.hex(6)}]`,
    '',
    'goroutine 1 [running]:',
    `main.(*server).handle(0xc000${prng.hex(6)})`,
    `\t/src/server.go:${prng.int(10, 400)} +0x${prng.hex(2)}`,
  ];
}
