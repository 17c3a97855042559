/** The kinds of failure the use cases report; the HTTP edge maps each to one status code. */
export type FailureCode =
  | 'validation'
  | 'unauthorized'
  | 'not_found'
  | 'conflict'
  | 'limit_exceeded'
  | 'rate_limited'
  | 'unavailable';

/** One failed check, with the path of the field it concerns (`filters.events[0].asset_identifier`). */
export type FieldProblem = { field: string; message: string };

/** An expected failure: bad input, a missing hook, a state conflict or a limit; its message is safe to show. */
export class StackhooksError extends Error {
  override readonly name = 'StackhooksError';

  constructor(
    readonly code: FailureCode,
    message: string,
    readonly details: FieldProblem[] = [],
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** A validation failure naming the fields that are wrong; the first problem becomes the message. */
export function invalidInput(problems: FieldProblem[]): StackhooksError {
  const first = problems[0] ?? { field: 'body', message: 'is invalid' };
  return new StackhooksError('validation', `${first.field} ${first.message}`, problems);
}

/** The hook is unknown to this owner (another owner's hook is a 404 too, never a 403). */
export function hookNotFound(uuid: string): StackhooksError {
  return new StackhooksError('not_found', `hook ${uuid} not found`);
}

/** Whether `err` is a store's passing outage (`storeUnavailable`): time lost, not a fault. */
export function isStoreOutage(err: unknown): err is StackhooksError {
  return err instanceof StackhooksError && err.code === 'unavailable';
}

/**
 * A store cannot take or give data for now (a full disk, an unreachable database): nothing was
 * acknowledged, and the same request may succeed after `retryAfterSeconds`.
 */
export function storeUnavailable(reason: string, retryAfterSeconds = 5): StackhooksError {
  return new StackhooksError(
    'unavailable',
    `store unavailable: ${reason}; retry later`,
    [],
    retryAfterSeconds,
  );
}
