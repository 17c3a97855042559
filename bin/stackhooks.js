#!/usr/bin/env node
// The package ships TypeScript: register tsx, then run the command line.
import { register } from 'tsx/esm/api';

register();
await import('../apps/cli/main.ts');
