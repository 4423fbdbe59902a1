/** ssh2's algorithm tables (untyped in @types/ssh2): what this ssh2 build, on this Node, implements. */
declare module 'ssh2/lib/protocol/constants.js' {
  const constants: {
    SUPPORTED_SERVER_HOST_KEY: readonly string[];
    SUPPORTED_KEX: readonly string[];
    SUPPORTED_CIPHER: readonly string[];
    SUPPORTED_MAC: readonly string[];
  };
  export default constants;
}
