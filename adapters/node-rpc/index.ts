export { NodeRpcInterfaceSource, type NodeRpcOptions } from './node-rpc-interface-source.js';
