/**
 * A redelivery asked for a payload whose body the outbox no longer holds: bodies of delivered
 * payloads are let go after a grace period (the log keeps their metadata). `code` lets the HTTP
 * edge map it to 409 without importing this adapter.
 */
export class BodyGoneError extends Error {
  /** A stable code for error mapping. */
  readonly code = 'DELIVERY_BODY_GONE';

  constructor(readonly deliveryId: string) {
    super(`payload ${deliveryId} was delivered and its body is no longer kept, so it cannot be sent again`);
    this.name = 'BodyGoneError';
  }
}
