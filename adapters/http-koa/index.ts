export {
  createHttpApi,
  createApiRouter,
  routeApi,
  API_PREFIXES,
  type HttpApiOptions,
} from './create-http-api.js';
export type { ApiState } from './api-state.js';
