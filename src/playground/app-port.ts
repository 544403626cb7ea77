/*
 * The port the bot serves its Mini App on in the playground. It stays the same from one run to the
 * next: a `web_app` button carries the app's whole URL, so a button in an earlier message would
 * otherwise point at the previous run's port («127.0.0.1 refused to connect»).
 */
import { createServer } from 'node:net';
import { ConfigError } from '../config.js';

/** Beside the page's 3000 (PLAYGROUND_PORT). */
export const DEFAULT_PLAYGROUND_APP_PORT = 3001;

/** Listens on `port` of 127.0.0.1 (0: any free one), and closes again: the port that was free. */
function probe(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

const isInUse = (error: unknown): boolean =>
  error instanceof Error && 'code' in error && (error.code === 'EADDRINUSE' || error.code === 'EACCES');

/**
 * PLAYGROUND_APP_PORT, or 3001 when unset; 0 takes a free port (the tests do). When the port is
 * taken, a free one for this run, with a `notice` saying so and what the earlier buttons point at.
 */
export async function choosePlaygroundAppPort(
  setting: string | undefined,
): Promise<{ port: number; notice?: string }> {
  const wanted =
    setting === undefined || setting.trim() === '' ? DEFAULT_PLAYGROUND_APP_PORT : Number(setting);
  if (!Number.isInteger(wanted) || wanted < 0 || wanted > 65_535) {
    throw new ConfigError(['PLAYGROUND_APP_PORT must be a port number (0 takes a free one)']);
  }
  try {
    return { port: await probe(wanted) };
  } catch (error) {
    if (!isInUse(error)) throw error;
    const port = await probe(0);
    return {
      port,
      notice:
        `Port ${wanted} (PLAYGROUND_APP_PORT) is taken: the Mini App is on port ${port} for this run, ` +
        `and buttons sent before point at ${wanted}. Free the port, or set PLAYGROUND_APP_PORT.`,
    };
  }
}
