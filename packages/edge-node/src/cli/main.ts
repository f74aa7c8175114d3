import { EXIT_USAGE, type CliIo } from './CliIo.js';
import { runPlan } from './plan.js';
import { runServe } from './serve.js';
import { runSteer } from './steer.js';

const USAGE = `usage: ethle-edge <command> [options]

commands:
  plan    operator's calculator: how many segments to hold (ETHLE model)
  serve   run the edge server in front of configured origins
  steer   a fleet's content-steering service: edges ordered by health, then load

ethle-edge <command> --help for the options of a command
`;

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'plan':
      return runPlan(rest, io);
    case 'serve':
      return runServe(rest, io);
    case 'steer':
      return runSteer(rest, io);
    case '--help':
    case '-h':
    case 'help':
      io.stdout.write(USAGE);
      return 0;
    case undefined:
      io.stderr.write(`ethle-edge: missing command\n\n${USAGE}`);
      return EXIT_USAGE;
    default:
      io.stderr.write(`ethle-edge: unknown command ${JSON.stringify(command ?? '')}\n\n${USAGE}`);
      return EXIT_USAGE;
  }
}
