import { selectBridge } from './bridge/select-bridge';
import { mountApp } from './mount-app';

const { bridge, socket } = selectBridge();
mountApp(bridge, socket);
