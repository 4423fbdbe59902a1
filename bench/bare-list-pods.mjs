// The export bench's baseline: one ListPods on a socket with a stock grpc-js client and nothing else (the
// response kept as raw bytes, no decoding), as plain JavaScript like the built CLI. argv: socket path.
import { Client, credentials } from '@grpc/grpc-js';

const client = new Client(`unix:${process.argv[2]}`, credentials.createInsecure(), { 'grpc.max_receive_message_length': -1 });
client.makeUnaryRequest('/v1alpha1.Pods/ListPods', () => Buffer.alloc(0), (b) => b, undefined, (err, bytes) => {
  client.close();
  if (err) throw err;
  process.stdout.write(`${bytes.length} bytes\n`);
});
