import './ui/playground.js';
