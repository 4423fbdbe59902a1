import { describe, expect, it } from 'vitest';
import { ContractError } from '../../app/contract/errors';
import { errorText } from './error-text';

describe('errorText', () => {
  it('adds the next step the host sent, once', () => {
    expect(errorText(new ContractError('ssh', 'Connection refused.', 'Check the port.'))).toBe('Connection refused. Check the port.');
    expect(errorText(new Error('Connection refused. Check the port.'))).toBe('Connection refused. Check the port.');
    expect(errorText('plain')).toBe('plain');
  });
});
