import { pino } from 'pino';
import type { Logger } from '../../platform/logging/logger.js';

/** One log line as the system writes it: pino's JSON with its level number and message. */
export interface LogLine {
  level: number;
  msg?: string;
  [field: string]: unknown;
}

/** A real logger whose lines are kept in memory, so a test can check what was logged. */
export function capturedLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = pino(
    { level: 'trace', base: undefined },
    { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
  );
  return { logger, lines };
}

/** pino's number for the warn level. */
export const WARN_LEVEL = 40;

/** pino's number for the error level. */
export const ERROR_LEVEL = 50;
