import { describe, expect, it } from 'vitest';
import { createFakeBridge } from '../../app/contract/testing/fake-bridge';
import type { Notice } from '../../app/contract/notices';
import { AppModel } from './app-model';

const unreadable: Notice = { id: 'saved-nodes-unreadable-1', message: 'Your saved nodes could not be read.', nextStep: 'Add the nodes again.' };

function modelWith(notices: Notice[]) {
  const dismissed: string[] = [];
  const bridge = createFakeBridge({
    'nodes.list': () => [],
    'prompts.pending': () => [],
    'notices.list': () => notices,
    'notices.dismiss': ({ id }) => (dismissed.push(id), {}),
  });
  return { bridge, dismissed, model: new AppModel(bridge, { requestFrame: (cb) => cb() }) };
}

describe('AppModel notices', () => {
  it('shows the notices raised before the window opened', async () => {
    const { model } = modelWith([unreadable]);
    await model.start();
    expect(model.notices).toEqual([unreadable]);
  });

  it('adds one as it is raised and drops it when the app core closes it', async () => {
    const { bridge, model } = modelWith([]);
    await model.start();
    const saveFailed = { id: 'save-failed-2', message: 'Could not save.', nextStep: 'Free up space.' };
    bridge.emit('notice', saveFailed);
    bridge.emit('notice', saveFailed);
    expect(model.notices).toEqual([saveFailed]);
    bridge.emit('noticeClosed', { id: saveFailed.id });
    expect(model.notices).toEqual([]);
  });

  it('dismisses in the app core too, so other windows drop it', async () => {
    const { model, dismissed } = modelWith([unreadable]);
    await model.start();
    await model.dismissNotice(unreadable.id);
    expect(model.notices).toEqual([]);
    expect(dismissed).toEqual([unreadable.id]);
  });

  it('does not bring back a notice closed while the list was on its way', async () => {
    let answer!: (notices: Notice[]) => void;
    const bridge = createFakeBridge({
      'nodes.list': () => [],
      'prompts.pending': () => [],
      'notices.list': () => new Promise<Notice[]>((resolve) => (answer = resolve)),
    });
    const model = new AppModel(bridge, { requestFrame: (cb) => cb() });
    const started = model.start();
    await new Promise((r) => setTimeout(r, 0));
    const raisedMeanwhile = { id: 'save-failed-3', message: 'Could not save.', nextStep: 'Free up space.' };
    bridge.emit('notice', raisedMeanwhile);
    bridge.emit('noticeClosed', { id: unreadable.id });
    answer([unreadable]);
    await started;
    expect(model.notices).toEqual([raisedMeanwhile]);
  });

  it('still starts against an app core that has no notices to give', async () => {
    const bridge = createFakeBridge({ 'nodes.list': () => [], 'prompts.pending': () => [] });
    const model = new AppModel(bridge, { requestFrame: (cb) => cb() });
    await model.start();
    expect(model.notices).toEqual([]);
    expect(model.connectionProblem).toBeNull();
  });
});
