import { z } from 'zod';

/**
 * Questions the app core must ask the user mid-connection. Each carries an id; the UI answers with
 * prompts.answer. A prompt that goes away without an answer (node removed, timeout) is announced
 * with the promptClosed event. A host key is only asked about when it is unknown: a changed key is
 * refused without asking and reported as the node's error.
 */
export const PromptSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('hostKey'),
    id: z.string().min(1),
    nodeId: z.string(),
    host: z.string(),
    port: z.number().int(),
    keyType: z.string(),
    /** OpenSSH style: SHA256:base64-without-padding. */
    fingerprint: z.string(),
    /** The user's OpenSSH asks: it records an accepted key in known_hosts, so there is no accepting once. */
    recordsAccepted: z.literal(true).optional(),
  }),
  /** The kubelet's serving certificate, asked about like a host key: unknown ones only, a changed one is refused. */
  z.object({
    kind: z.literal('kubeletCertificate'),
    id: z.string().min(1),
    nodeId: z.string(),
    host: z.string(),
    port: z.number().int(),
    /** SHA-256 of the certificate, colon-separated hex as openssl x509 -fingerprint -sha256 prints it. */
    fingerprint: z.string(),
  }),
  z.object({
    kind: z.literal('passphrase'),
    id: z.string().min(1),
    nodeId: z.string(),
    /** The identity file the passphrase unlocks. */
    keyPath: z.string(),
    /** Set when an earlier answer was wrong. */
    retryReason: z.string().optional(),
  }),
  z.object({
    kind: z.literal('password'),
    id: z.string().min(1),
    nodeId: z.string(),
    /** The login that asks: the node's, or behind a jump host that jump host's own (user and HostName). */
    user: z.string(),
    host: z.string(),
    retryReason: z.string().optional(),
  }),
  z.object({
    kind: z.literal('keyboardInteractive'),
    id: z.string().min(1),
    nodeId: z.string(),
    name: z.string(),
    instructions: z.string(),
    questions: z.array(z.object({ prompt: z.string(), echo: z.boolean() })),
  }),
]);
export type Prompt = z.infer<typeof PromptSchema>;

export const HostKeyDecisionSchema = z.enum(['acceptOnce', 'acceptAndRemember', 'refuse']);
export type HostKeyDecision = z.infer<typeof HostKeyDecisionSchema>;

/** Secrets travel once, in memory, and are never stored in plain text; null = the user cancelled. */
export const PromptAnswerSchema = z.discriminatedUnion('kind', [
  /** For hostKey and kubeletCertificate prompts. */
  z.object({ kind: z.literal('hostKey'), decision: HostKeyDecisionSchema }),
  z.object({ kind: z.literal('secret'), value: z.string().nullable() }),
  z.object({ kind: z.literal('keyboardInteractive'), responses: z.array(z.string()).nullable() }),
]);
export type PromptAnswer = z.infer<typeof PromptAnswerSchema>;
