import { Agent, get } from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * Run in its own process (so the load it makes does not share the server's event loop): sends
 * `rounds` bursts of `concurrency` simultaneous GETs of one URL over kept-alive connections and
 * prints every latency of the last burst, in milliseconds, as one JSON line. The earlier bursts
 * open the connections, so the measured burst times the server, not TCP handshakes.
 */
const [url, concurrencyText, roundsText] = process.argv.slice(2);
const concurrency = Number(concurrencyText);
const rounds = Number(roundsText);
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });

const timedGet = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    get(url ?? '', { agent }, (response) => {
      response.resume();
      response.on('end', () =>
        response.statusCode === 200
          ? resolve(performance.now() - started)
          : reject(new Error(`${url} answered ${response.statusCode}`)),
      );
    }).on('error', reject);
  });

const main = async (): Promise<void> => {
  let latencies: number[] = [];
  for (let round = 0; round < rounds; round += 1)
    latencies = await Promise.all(Array.from({ length: concurrency }, timedGet));
  process.stdout.write(`${JSON.stringify(latencies)}\n`);
  agent.destroy();
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
