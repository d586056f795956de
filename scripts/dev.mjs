#!/usr/bin/env node
// `npm run dev`: Vite with hot reload, proxying /api to the reference server (started here,
// restarting on change) or, with API_TARGET set, to any backend that speaks the same contract.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const bin = (name) => join('node_modules', '.bin', name);
const children = [];
const start = (command, args, env = {}) => {
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code) => {
    if (code && code !== 0) shutdown(code);
  });
  children.push(child);
};
const shutdown = (code = 0) => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(code);
};
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

const apiPort = process.env.PORT ?? '8080';
if (process.env.API_TARGET) {
  console.log(`Proxying /api to ${process.env.API_TARGET}`);
} else {
  start(bin('tsx'), ['watch', '--clear-screen=false', 'server/main.ts'], { PORT: apiPort, HOST: '127.0.0.1' });
}
start(bin('vite'), ['--port', process.env.VITE_PORT ?? '5173']);
