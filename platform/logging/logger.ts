import { pino, type Logger as PinoLogger, type LevelWithSilent } from 'pino';

export type Logger = PinoLogger;

/** One JSON-lines logger per process; services take a child named after themselves. */
export function createLogger(level: LevelWithSilent): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
}
