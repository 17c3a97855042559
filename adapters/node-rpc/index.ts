export {
  DEFAULT_NODE_RPC_CONCURRENCY,
  NodeRpcInterfaceSource,
  type NodeRpcOptions,
} from './node-rpc-interface-source.js';
