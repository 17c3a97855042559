import { injectable } from 'inversify';
import type { Clock } from '../../core/ports/clock.js';

/** The wall clock. */
@injectable()
export class SystemClock implements Clock {
  /** Milliseconds since the unix epoch. */
  now(): number {
    return Date.now();
  }
}
