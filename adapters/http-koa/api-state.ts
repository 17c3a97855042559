import type { ParameterizedContext } from 'koa';

/** What the middleware learns about a request before a route runs. */
export type ApiState = {
  requestId: string;
  /** Set by the key check on routes under /me. */
  owner?: string;
  keyId?: string;
};

export type ApiContext = ParameterizedContext<ApiState>;

/** The owner the key check found; only routes behind it call this. */
export function ownerOf(ctx: ApiContext): string {
  if (ctx.state.owner === undefined) throw new Error('route reached without an authenticated owner');
  return ctx.state.owner;
}
