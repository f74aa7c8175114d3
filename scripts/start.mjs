#!/usr/bin/env node
// `npm start`: the README's main job. Until the origin, edge and dashboard land, it runs the
// operator's calculator on the paper's Japan 15M-2s scenario.
import { spawnSync } from 'node:child_process';
const r = spawnSync('npx', ['ethle-edge', 'plan', '--rtt-ms', '224', '--segment-bytes', '3700000', '--segment-seconds', '2', '--ran-mbps', '60', '--iw', '1'], { stdio: 'inherit' });
process.exit(r.status ?? 1);
