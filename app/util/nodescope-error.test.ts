import { describe, expect, it } from 'vitest';
import { isNodescopeError, NodescopeError, type ExitClass } from './nodescope-error';

class DiskFull extends NodescopeError<'DISK_FULL'> {
  readonly exitClass: ExitClass = 'io';
  constructor(cause?: unknown) {
    super('DISK_FULL', 'cannot write out.json: no space left', 'Free space, then export again.', { cause });
  }
}

describe('NodescopeError', () => {
  it('carries the message, code, next step, class and cause, and is still an Error', () => {
    const cause = new Error('ENOSPC');
    const err = new DiskFull(cause);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ code: 'DISK_FULL', message: 'cannot write out.json: no space left', nextStep: 'Free space, then export again.', exitClass: 'io', cause });
  });

  it('leaves out a cause that was not given, rather than recording undefined', () => {
    expect('cause' in new DiskFull()).toBe(false);
  });

  it('tells its errors from any other thrown value', () => {
    expect(isNodescopeError(new DiskFull())).toBe(true);
    expect(isNodescopeError(Object.assign(new Error('x'), { code: 'DISK_FULL', nextStep: 'y' }))).toBe(false);
    expect(isNodescopeError('DISK_FULL')).toBe(false);
  });
});
