// DroneLink
