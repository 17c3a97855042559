export {
  createHttpApi,
  createApiRouter,
  routeApi,
  API_PREFIXES,
  type HttpApiOptions,
  type ChainStatus,
  type ChainHealthStatus,
  type GapStatus,
} from './create-http-api.js';
export type { ApiState } from './api-state.js';
