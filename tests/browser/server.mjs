// Starts `monotable serve --in-memory` on a free port (with more arguments when given); resolves
// { proc, url } once it listens.
import { spawn } from 'node:child_process';

export function startServer(binary, env = {}, args = []) {
  return new Promise((ok, fail) => {
    const proc = spawn(binary, ['serve', '--in-memory', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    const timer = setTimeout(() => fail(new Error(`server did not start: ${out}`)), 15000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on ([^:\s]+):(\d+)/.exec(out);
      if (m && /web console: /.test(out)) {
        clearTimeout(timer);
        if (/web console: absent/.test(out)) fail(new Error('this monotable was built without the console (no npm)'));
        else ok({ proc, url: `http://127.0.0.1:${m[2]}` });
      }
    });
    proc.stderr.on('data', (d) => process.stderr.write(`[server] ${d}`));
    proc.on('exit', (code) => fail(new Error(`server exited (${code}): ${out}`)));
  });
}
