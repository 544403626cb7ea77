import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { choosePlaygroundAppPort, DEFAULT_PLAYGROUND_APP_PORT } from '../../src/playground/app-port.js';

/** The playground's Mini App port: the same every run, so a button of an earlier run still opens. */

const held: Server[] = [];

afterEach(async () => {
  await Promise.all(held.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Holds a port on 127.0.0.1 as another program would (0: a free one); resolves to it. */
function hold(port = 0): Promise<number> {
  const server = createServer();
  held.push(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}

async function freeNow(): Promise<number> {
  const port = await hold();
  await new Promise((resolve) => held.pop()?.close(resolve));
  return port;
}

describe('the Mini App port in the playground', () => {
  it('is PLAYGROUND_APP_PORT, the same in every run, and 3001 when unset', async () => {
    expect(DEFAULT_PLAYGROUND_APP_PORT).toBe(3001);
    const port = await freeNow();
    expect(await choosePlaygroundAppPort(String(port))).toEqual({ port });
    expect(await choosePlaygroundAppPort(String(port))).toEqual({ port });
    const unset = await choosePlaygroundAppPort(undefined);
    // 3001 itself unless something on this machine holds it (then the notice says so).
    expect(unset.port === 3001 || unset.notice?.startsWith('Port 3001 (PLAYGROUND_APP_PORT) is taken')).toBe(
      true,
    );
  });

  it('falls back to a free port when the port is taken, and says what the earlier buttons point at', async () => {
    const taken = await hold();
    const chosen = await choosePlaygroundAppPort(String(taken));
    expect(chosen.port).not.toBe(taken);
    expect(chosen.port).toBeGreaterThan(0);
    expect(chosen.notice).toBe(
      `Port ${taken} (PLAYGROUND_APP_PORT) is taken: the Mini App is on port ${chosen.port} for this run, ` +
        `and buttons sent before point at ${taken}. Free the port, or set PLAYGROUND_APP_PORT.`,
    );
    await hold(chosen.port);
  });

  it('takes a free port for 0, and refuses what is not a port in one config line', async () => {
    expect((await choosePlaygroundAppPort('0')).port).toBeGreaterThan(0);
    for (const setting of ['app', '70000', '-1', '3001.5']) {
      await expect(choosePlaygroundAppPort(setting)).rejects.toEqual(
        new ConfigError(['PLAYGROUND_APP_PORT must be a port number (0 takes a free one)']),
      );
    }
  });
});
