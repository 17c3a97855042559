/**
 * A redelivery asked for a payload whose body the outbox no longer holds (delivered bodies are let
 * go after a grace period; the log keeps their metadata). Its `name` and `code` are those the
 * embedded outbox uses, so the HTTP edge maps it to 409 without importing any adapter.
 */
export class PgBodyGoneError extends Error {
  /** A stable code for error mapping. */
  readonly code = 'DELIVERY_BODY_GONE';

  constructor(readonly deliveryId: string) {
    super(`payload ${deliveryId} was delivered and its body is no longer kept, so it cannot be sent again`);
    this.name = 'BodyGoneError';
  }
}
