import { mountApp } from '../mount-app';
import { createFakeAppCore } from './fake-app-core';

// The design preview: the real UI on the in-memory fake app core (see fake-app-core.ts).
mountApp(createFakeAppCore(), null);
