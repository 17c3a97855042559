export { createPredicatesServer, type PredicatesListenerOptions } from './predicates-listener.js';
