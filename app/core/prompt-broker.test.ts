import { describe, expect, it } from 'vitest';
import { ContractError, type Prompt } from '../contract';
import type { AppEvent } from './app-event';
import { PromptBroker } from './prompt-broker';

function broker() {
  const events: AppEvent[] = [];
  const waiting: [string, Prompt | null][] = [];
  const b = new PromptBroker((e) => events.push(e), (nodeId, prompt) => waiting.push([nodeId, prompt]));
  return { b, events, waiting, prompter: b.prompterFor('n1') };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('PromptBroker', () => {
  it('asks a lone hidden "Password:" question as a password prompt and passes the answer once', async () => {
    const { b, events, prompter } = broker();
    const answer = prompter.keyboardInteractive({ name: '', login: { user: 'ops', host: 'node-1' }, instructions: '', prompts: [{ prompt: 'Password: ', echo: false }] });
    await tick();
    const [prompt] = b.pending();
    expect(prompt).toMatchObject({ kind: 'password', nodeId: 'n1', user: 'ops', host: 'node-1' });
    b.answer(prompt!.id, { kind: 'secret', value: 's3cret' });
    expect(await answer).toEqual(['s3cret']);
    expect(b.pending()).toEqual([]);
    expect(events.map((e) => e.name)).toEqual(['prompt', 'promptClosed']);
  });

  it("names the login that asks for a password, a jump host's own rather than the node's", async () => {
    const { b, prompter } = broker();
    const answer = prompter.keyboardInteractive({ name: '', login: { user: 'jumper', host: 'bastion-1' }, instructions: '', prompts: [{ prompt: 'Password: ', echo: false }] });
    await tick();
    expect(b.pending()).toEqual([expect.objectContaining({ kind: 'password', nodeId: 'n1', user: 'jumper', host: 'bastion-1' })]);
    b.answer(b.pending()[0]!.id, { kind: 'secret', value: 'pw' });
    expect(await answer).toEqual(['pw']);
  });

  it('shows other keyboard-interactive questions as they are, with their echo flags', async () => {
    const { b, prompter } = broker();
    const answer = prompter.keyboardInteractive({
      name: 'otp',
      login: { user: 'ops', host: 'node-1' },
      instructions: 'Two factors',
      prompts: [
        { prompt: 'Password: ', echo: false },
        { prompt: 'Code: ', echo: true },
      ],
    });
    await tick();
    const [prompt] = b.pending();
    expect(prompt).toMatchObject({ kind: 'keyboardInteractive', questions: [{ echo: false }, { echo: true }] });
    b.answer(prompt!.id, { kind: 'keyboardInteractive', responses: ['pw', '123456'] });
    expect(await answer).toEqual(['pw', '123456']);
  });

  it('refuses an answer of the wrong kind and keeps waiting', async () => {
    const { b, prompter } = broker();
    const decision = prompter.hostKey({ host: 'node-1', port: 22, keyType: 'ssh-ed25519', fingerprint: 'SHA256:x' });
    await tick();
    const [prompt] = b.pending();
    expect(() => b.answer(prompt!.id, { kind: 'secret', value: 'x' })).toThrow(ContractError);
    expect(b.pending()).toHaveLength(1);
    b.answer(prompt!.id, { kind: 'hostKey', decision: 'acceptOnce' });
    expect(await decision).toBe('once');
    expect(() => b.answer(prompt!.id, { kind: 'hostKey', decision: 'refuse' })).toThrow(/No question/);
  });

  it('declines what a removed node was waiting for and tells the UI the question is gone', async () => {
    const { b, events, waiting, prompter } = broker();
    const decision = prompter.hostKey({ host: 'node-1', port: 22, keyType: 'ssh-ed25519', fingerprint: 'SHA256:x' });
    const passphrase = prompter.passphrase({ keyPath: '/k', attempt: 1 });
    await tick();
    expect(b.pending().map((p) => p.kind)).toEqual(['hostKey', 'passphrase']);
    b.cancelNode('n1');
    expect(await decision).toBe('refuse');
    expect(await passphrase).toBeNull();
    expect(events.filter((e) => e.name === 'promptClosed')).toHaveLength(2);
    expect(waiting.at(-1)).toEqual(['n1', null]);
  });
});
