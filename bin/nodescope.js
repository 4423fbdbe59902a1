#!/usr/bin/env node
// Runs the TypeScript CLI straight from the checkout: no build step to remember after `npm install`.
import { register } from 'tsx/esm/api';

register();
await import('../app/cli/main.ts');
