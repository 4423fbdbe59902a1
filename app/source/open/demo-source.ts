/**
 * The demo node, Node side: the simulated kubelet inside Nodescope, started for a host on first use and
 * stopped when the demo node is removed (no one watches it any more) or the host closes. The CLI cannot
 * name it (its socket is private to the app; `nodescope sim` serves one of its own).
 */
import type { NodeLink, NodeLinkRequest } from '../../core/node-link';
import type { DemoKubelet } from '../../host/demo-node';
import type { HostOpening, SourceKindNode } from '../source-registry';

function demoOpening(): HostOpening {
  let starting: Promise<DemoKubelet> | null = null;
  const stop = async () => {
    const stopping = starting;
    starting = null;
    await (await stopping?.catch(() => null))?.close();
  };
  return {
    openLink(request: NodeLinkRequest): NodeLink {
      let closed = false;
      let link: NodeLink | null = null;
      const opening = (async () => {
        try {
          starting ??= import('../../host/demo-node').then(({ startDemoKubelet }) => startDemoKubelet());
          const demo = await starting;
          if (!closed) link = demo.openLink(request);
        } catch (err) {
          starting = null;
          if (!closed) request.events.state({ phase: 'error', cause: `The simulated kubelet did not start: ${(err as Error).message}`, nextStep: 'Start the demo node again.' });
        }
      })();
      return {
        async close() {
          closed = true;
          await opening;
          await link?.close();
        },
        logFiles: async () => {
          await opening;
          return link?.logFiles?.();
        },
      };
    },
    removed: stop,
    close: stop,
  };
}

export const DEMO_SOURCE: SourceKindNode = { kind: 'demo', host: demoOpening };
