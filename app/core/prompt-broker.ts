import { ContractError, type Prompt, type PromptAnswer } from '../contract';
import { CERTIFICATE_KIND } from './certificate-kind';
import type { HostKeyAnswer, SshPrompter } from '../ssh/ssh-prompter';
import type { AppEvent } from './app-event';

type PromptBody = Prompt extends infer P ? (P extends Prompt ? Omit<P, 'id' | 'nodeId'> : never) : never;

interface Waiting {
  prompt: Prompt;
  resolve(answer: PromptAnswer | null): void;
}

/**
 * Turns an SSH connection's questions into contract prompts and waits for the UI's answer.
 * Secrets pass through memory once and are never kept; a prompt nobody answers (node removed,
 * window gone) resolves as "declined".
 */
export class PromptBroker {
  private readonly waiting = new Map<string, Waiting>();
  private next = 1;

  constructor(
    private readonly emit: (event: AppEvent) => void,
    /** Told when a node starts and stops waiting for the user, for its sidebar state. */
    private readonly onWaiting: (nodeId: string, prompt: Prompt | null) => void,
  ) {}

  pending(): Prompt[] {
    return [...this.waiting.values()].map((w) => w.prompt);
  }

  answer(promptId: string, answer: PromptAnswer): void {
    const waiting = this.waiting.get(promptId);
    if (!waiting) {
      throw new ContractError('not-found', `No question ${promptId} is waiting for an answer.`, 'It was answered elsewhere or timed out; check the node list.');
    }
    const expected = waiting.prompt.kind === 'hostKey' || waiting.prompt.kind === 'kubeletCertificate' ? 'hostKey' : waiting.prompt.kind === 'keyboardInteractive' ? 'keyboardInteractive' : 'secret';
    if (answer.kind !== expected) {
      throw new ContractError('invalid-input', `Question ${promptId} needs a ${expected} answer, not ${answer.kind}.`);
    }
    this.settle(promptId, answer);
  }

  /** Declines everything a node still waits for (it was removed or disconnected). */
  cancelNode(nodeId: string): void {
    for (const [id, w] of this.waiting) if (w.prompt.nodeId === nodeId) this.settle(id, null);
  }

  ask(nodeId: string, body: PromptBody): Promise<PromptAnswer | null> {
    const prompt = { ...body, id: `prompt-${this.next++}`, nodeId } as Prompt;
    return new Promise((resolve) => {
      this.waiting.set(prompt.id, { prompt, resolve });
      this.onWaiting(nodeId, prompt);
      this.emit({ name: 'prompt', payload: prompt });
    });
  }

  /** The SshPrompter a node's connection uses (its jump hosts' logins included). */
  prompterFor(nodeId: string): SshPrompter {
    return {
      hostKey: async (q): Promise<HostKeyAnswer> => {
        // The kubelet's serving certificate is pinned like a host key, but asked about in its own words.
        const answer = await this.ask(
          nodeId,
          q.keyType === CERTIFICATE_KIND
            ? { kind: 'kubeletCertificate', host: q.host, port: q.port, fingerprint: q.fingerprint }
            : { kind: 'hostKey', host: q.host, port: q.port, keyType: q.keyType, fingerprint: q.fingerprint, ...(q.recordsAccepted ? { recordsAccepted: true as const } : {}) },
        );
        const decision = answer?.kind === 'hostKey' ? answer.decision : 'refuse';
        return decision === 'acceptOnce' ? 'once' : decision === 'acceptAndRemember' ? 'remember' : 'refuse';
      },
      passphrase: async (q) => {
        const answer = await this.ask(nodeId, {
          kind: 'passphrase',
          keyPath: q.keyPath,
          ...(q.retryReason ? { retryReason: q.retryReason } : {}),
        });
        return answer?.kind === 'secret' ? answer.value : null;
      },
      keyboardInteractive: async (q) => {
        // A lone hidden "Password:" question is password auth: ask it as such, for the login that asks
        // (a jump host's own, behind one), as the terminal names it.
        const only = q.prompts.length === 1 ? q.prompts[0] : undefined;
        if (only && !only.echo && /password/i.test(only.prompt)) {
          const answer = await this.ask(nodeId, { kind: 'password', user: q.login.user, host: q.login.host });
          return answer?.kind === 'secret' && answer.value !== null ? [answer.value] : null;
        }
        const answer = await this.ask(nodeId, { kind: 'keyboardInteractive', name: q.name, instructions: q.instructions, questions: q.prompts });
        return answer?.kind === 'keyboardInteractive' ? answer.responses : null;
      },
    };
  }

  private settle(promptId: string, answer: PromptAnswer | null): void {
    const waiting = this.waiting.get(promptId);
    if (!waiting) return;
    this.waiting.delete(promptId);
    this.emit({ name: 'promptClosed', payload: { id: promptId } });
    this.onWaiting(waiting.prompt.nodeId, null);
    waiting.resolve(answer);
  }
}
