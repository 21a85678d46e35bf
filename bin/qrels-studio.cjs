#!/usr/bin/env node
// The qrels-studio CLI (dist/cli.cjs), on a Node.js new enough for it (see launch.cjs).
'use strict';
require('./launch.cjs').launch('qrels-studio', 'cli.cjs');
