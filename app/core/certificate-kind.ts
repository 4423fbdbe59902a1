/**
 * The "key type" a kubelet serving certificate is asked about under, through the SSH prompter's host key
 * question: the terminal prints it as is, the app's prompt broker asks it as a certificate. Browser-safe.
 */
export const CERTIFICATE_KIND = 'kubelet serving certificate (TLS, SHA-256)';
