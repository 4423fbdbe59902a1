// The UI ↔ app-core contract: import from here in main/, the preload, the renderer and the server.
export * from './bridge';
export * from './call-client';
export * from './diff';
export * from './errors';
export * from './events';
export * from './fleet';
export * from './handle-request';
export * from './history';
export * from './jobs';
export * from './logs';
export * from './node-metrics';
export * from './nodes';
export * from './notices';
export * from './pods';
export * from './prompts';
export * from './requests';
export * from './ws-wire';
