/**
 * Keeps webhooks off addresses they must not reach (loopback, private, link-local, cloud metadata)
 * unless the deployment allows private targets.
 */
export interface TargetGuard {
  /** The reason a URL may not be a webhook target (after resolving its host), or undefined when it may. */
  refusal(url: string): Promise<string | undefined>;
}

export const TARGET_GUARD = Symbol.for('stackhooks.TargetGuard');
