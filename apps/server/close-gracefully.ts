import type { Server } from 'node:http';

/**
 * Stop a server: close() waits for requests in flight; idle keep-alive sockets are closed at once,
 * and after the grace time whatever still hangs is cut so shutdown always ends.
 */
export async function closeGracefully(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  await closed;
  clearTimeout(timer);
}
