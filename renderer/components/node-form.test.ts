import { describe, expect, it } from 'vitest';
import { AddNodeSpecSchema, type AddNodeSpec } from '../../app/contract/nodes';
import { EMPTY, fromSpec, toSpec } from './node-form';

const roundTrip = (spec: AddNodeSpec) => AddNodeSpecSchema.parse(toSpec(fromSpec(spec)));

describe('the node form, filled from a node to edit it', () => {
  it('gives back every setting of an SSH node as it was saved, group and display name included', () => {
    const spec: AddNodeSpec = {
      kind: 'ssh', label: 'gpu 2', group: 'gpu', host: 'gpu-node-2', port: 2222, user: 'core', identityFile: '/home/o/.ssh/id', jumpHost: 'ops@bastion:22',
      socketPath: '/run/pods.sock', sudo: true, api: 'rest', ssh: 'openssh', podResourcesSocket: '/var/lib/kubelet/pod-resources/kubelet.sock',
      rest: { port: 10250, tokenFile: 'node:/etc/token', caFile: '/etc/ca.pem', pollIntervalS: 0.5 },
    };
    expect(roundTrip(spec)).toEqual(spec);
  });

  it('keeps a node saved before the API could be chosen on the Pods API, and a socket on this machine as it is', () => {
    expect(fromSpec({ kind: 'ssh', host: 'worker-1' })).toEqual({ ...EMPTY, host: 'worker-1', api: 'pods' });
    expect(roundTrip({ kind: 'ssh', host: 'worker-1' })).toEqual({ kind: 'ssh', host: 'worker-1', api: 'pods' });
    expect(roundTrip({ kind: 'unix', socketPath: '/run/sim.sock', group: 'lab' })).toEqual({ kind: 'unix', socketPath: '/run/sim.sock', group: 'lab' });
  });
});
