/**
 * Test helper, run as a child process under a file-size limit (ulimit -f): records events until the disk
 * refuses one, then prints how many were written, as a full disk would leave it.
 */
import { decodePod } from '../../pod/decode';
import { webPodBytes } from '../../pod/testdata/handmade-pods';
import { startRecording } from '../recording-writer';

// Past the limit the kernel sends SIGXFSZ, which would kill the process before the write can fail with EFBIG.
process.on('SIGXFSZ', () => {});
const pod = { pod: decodePod(webPodBytes()).pod, unknownFields: [] };
const writer = await startRecording(process.argv[2]!, { provenance: {}, pods: [pod] });
let written = 0;
try {
  for (;;) {
    writer.append({ time: Date.now(), type: 'MODIFIED', pod });
    written++;
  }
} catch (err) {
  console.log(JSON.stringify({ written, message: (err as Error).message }));
}
await writer.close();
