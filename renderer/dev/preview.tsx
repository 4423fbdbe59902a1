import { mountApp } from '../mount-app';
import { createPreviewCore } from './preview-core';

// The design preview: the real UI on the real hub over in-memory sources (see preview-core.ts).
// ?scale=32&events=1000 gives about 10,000 pods and 1,000 changes per second, to check fluidity;
// ?leftOut=TEXT (repeatable) names pods the demo node sent that are not shown; ?fleet=100 adds 100 nodes in groups.
const params = new URLSearchParams(window.location.search);
const leftOut = params.getAll('leftOut');
mountApp(createPreviewCore({ scale: Number(params.get('scale') ?? 1), eventsPerSecond: Number(params.get('events') ?? 4), ...(leftOut.length ? { leftOut } : {}), fleet: Number(params.get('fleet') ?? 0) }), null);
