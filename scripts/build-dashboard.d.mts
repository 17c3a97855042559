/** Compile the dashboard into `folder` (default dist/apps/dashboard); throws when tsc reports an error. */
export declare function buildDashboard(folder?: string): void;
