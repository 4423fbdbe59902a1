/**
 * Which login methods ssh_config allows, in the order ssh tries them: PreferredAuthentications
 * (default publickey, keyboard-interactive, password; gssapi-with-mic and hostbased are never
 * tried by the built-in transport) less those turned off by PubkeyAuthentication,
 * KbdInteractiveAuthentication or PasswordAuthentication `no`.
 */

export type AuthMethodName = 'publickey' | 'keyboard-interactive' | 'password';

const SUPPORTED: readonly AuthMethodName[] = ['publickey', 'keyboard-interactive', 'password'];
export const DEFAULT_AUTH_METHODS: readonly AuthMethodName[] = SUPPORTED;

const isOff = (v: string | undefined) => v === 'no' || v === 'false';

/** From values as `ssh -G` prints them (lowercase keywords; preferredauthentications only when set). */
export function allowedAuthMethods(first: (keyword: string) => string | undefined): AuthMethodName[] {
  const preferred = first('preferredauthentications')?.split(',') ?? DEFAULT_AUTH_METHODS;
  const off: Record<AuthMethodName, boolean> = {
    publickey: isOff(first('pubkeyauthentication')),
    'keyboard-interactive': isOff(first('kbdinteractiveauthentication')),
    password: isOff(first('passwordauthentication')),
  };
  const allowed = preferred.filter((m): m is AuthMethodName => (SUPPORTED as readonly string[]).includes(m) && !off[m as AuthMethodName]);
  return [...new Set(allowed)];
}
