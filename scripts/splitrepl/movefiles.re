^(py[a-z0-9_]*|re|re_[a-z0-9_]+|dictview|iterfail|driver|tryrun|path|pathio|glob|guard)\.go$
