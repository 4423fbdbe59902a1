import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from './usage-error';
import { parseAt, parseDuration, resolveSource } from './pod-source';

const dir = mkdtempSync(join(tmpdir(), 'nodescope-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a SOURCE argument', () => {
  it('is a socket for unix:PATH (also unix:///PATH) and for --local, whatever the name', () => {
    expect(resolveSource('unix:/run/pods.sock', undefined)).toEqual({ kind: 'unix', path: '/run/pods.sock' });
    expect(resolveSource('unix:///run/pods.sock', undefined)).toEqual({ kind: 'unix', path: '/run/pods.sock' });
    expect(resolveSource('worker-1', '/tmp/sim.sock')).toEqual({ kind: 'unix', path: '/tmp/sim.sock' });
    expect(() => resolveSource('unix:pods.sock', undefined)).toThrow(UsageError);
  });

  it('is a file when it has a slash, a pod file extension, or exists here as a file; else an SSH destination', () => {
    expect(resolveSource('./pods', undefined)).toEqual({ kind: 'file', path: './pods' });
    expect(resolveSource('snap.JSON', undefined)).toEqual({ kind: 'file', path: 'snap.JSON' });
    expect(resolveSource('night.recording', undefined).kind).toBe('file');
    const plain = join(dir, 'capture');
    writeFileSync(plain, '{}');
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      expect(resolveSource('capture', undefined)).toEqual({ kind: 'file', path: 'capture' });
    } finally {
      process.chdir(cwd);
    }
    expect(resolveSource('admin@worker-1', undefined)).toEqual({ kind: 'ssh', host: 'admin@worker-1' });
    expect(resolveSource('worker-1', undefined)).toEqual({ kind: 'ssh', host: 'worker-1' });
  });
});

describe('--at and --duration', () => {
  const start = Date.parse('2026-11-23T10:00:00Z');

  it('take RFC 3339 times and durations from the start', () => {
    expect(parseAt('2026-11-23T10:05:00Z', start)).toBe(start + 300_000);
    expect(parseAt('2026-11-23T11:05:00.500+01:00', start)).toBe(start + 300_500);
    expect(parseAt('+5m', start)).toBe(start + 300_000);
    expect(parseAt('+1h30m', start)).toBe(start + 5_400_000);
    expect(parseAt('+250ms', start)).toBe(start + 250);
    expect(parseDuration('90s')).toBe(90_000);
  });

  it('refuse anything else with an example of what works', () => {
    expect(() => parseAt('yesterday', start)).toThrow(/RFC 3339 time such as/);
    expect(() => parseAt('+5 minutes', start)).toThrow(/such as 90s, 5m or 1h30m/);
    expect(() => parseAt('2026-11-23', start)).toThrow(UsageError);
    expect(parseDuration('5')).toBeUndefined();
    expect(parseDuration('')).toBeUndefined();
  });
});
