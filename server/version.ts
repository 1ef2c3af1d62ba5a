// editls's version, as --version, serverInfo and the agents' discovery records give it.
export const SERVER_VERSION = '0.1.0';
